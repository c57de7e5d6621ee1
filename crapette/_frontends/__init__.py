"""What the pictures and the text share: what a player sees of each pile, the table's drawing, the replay page.

The public modules (:mod:`crapette.text`, :mod:`crapette.svg`, :mod:`crapette.wording`)
stay at their own paths.
"""
