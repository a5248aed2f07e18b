"""The foundation layer: what every layer may use (settings, errors, time, closed vocabularies); it imports nothing above it.

This face imports nothing: the hook client and the fast lane load only the modules they name.
"""
