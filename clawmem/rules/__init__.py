"""The rules layer's loose modules: hints, incoming text, input validation and output conventions (the trust rules are ``clawmem/trust/``).

This face imports nothing: the hook client and the fast lane load only the modules they name.
"""
