"""The storage layer: the workspace's files, their locks and durable writes, the ledger and curated memory; it imports only storage and the foundation.

This face imports nothing: the hook client and the fast lane load only the modules they name.
"""
