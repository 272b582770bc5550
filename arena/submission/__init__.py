"""Submitting a new version of a bot: the test that tells whether it is stronger than the last one."""
