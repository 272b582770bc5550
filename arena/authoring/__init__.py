"""Tools for bot authors besides the SDK (:mod:`arena.sdk`): check-bot and starter kits."""
