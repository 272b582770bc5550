"""Running a tournament: checking its bots first, then playing its matches through an executor."""
