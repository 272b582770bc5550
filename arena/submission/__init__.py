"""Bot submission: accounts, packing and safely unpacking uploads, and the SPRT that tells whether a new version is stronger."""
