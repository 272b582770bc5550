"""Yoninkan engine tests."""
