"""Line-level helpers for outside text: line ids, diffs, placeholder markers, bounds, counted
nouns.
"""
