"""Game files and ledgers out and in: the export and the ledger's CSV, imports, a tournament's
results."""
