"""The league's data: the SQLite store, its read queries, TrueSkill ratings and running totals."""
