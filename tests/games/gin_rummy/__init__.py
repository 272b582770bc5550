"""Gin Rummy engine tests (docs/rules/gin_rummy.md)."""
