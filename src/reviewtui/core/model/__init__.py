"""The records every stage passes on: sessions and operations, outcomes, the virtual tree, edit
shapes.
"""
