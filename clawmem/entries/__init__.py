"""Memory-file entries: the grammar (parse/render) and the neutraliser for untrusted text."""
