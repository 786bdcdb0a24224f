"""Open tables at the web edge: the shared list (`snapshot`) and its routes (`http`)."""
