"""Bot submission: accounts, uploads, builds, checks."""
