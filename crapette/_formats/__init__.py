"""The formats: position strings, game records (JSON and text), the action numbering, and Game.

Users import their public names from :mod:`crapette`.
"""
