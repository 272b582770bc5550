"""Who plays whom: the tournaments' round robins and the live ladder's next duplicate set."""
