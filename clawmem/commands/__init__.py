"""The core of the commands: one module per command family, importable and tested without the CLI (larger families are packages of their own beside this one).

This face imports nothing: the hook client and the fast lane load only the modules they name.
"""
