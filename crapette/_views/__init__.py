"""What a player knows: the public view of a state, and dealing the cards it hides.

Users import its public names from :mod:`crapette`.
"""
