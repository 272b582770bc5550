"""Long runs of matches: the shared run loop (:mod:`arena.runs.loop`) and the ladder service
(:mod:`arena.runs.ladder`); tournaments (:mod:`arena.tournament`) use the same loop."""
