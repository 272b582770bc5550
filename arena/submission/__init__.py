"""Bot submission: packing a bot folder, and safely unpacking the archives strangers upload."""
