"""Running matches: the run loop tournaments and ladders share (:mod:`arena.runs.loop`),
tournaments (:mod:`arena.runs.tournament`, checked first by :mod:`arena.runs.preflight`) and
the ladder service (:mod:`arena.runs.ladder`)."""
