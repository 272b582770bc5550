"""Gin Rummy engine tests (RULES.md section 5)."""
