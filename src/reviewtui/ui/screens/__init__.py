"""Screens of the workbench: the review screen and its dialogs."""
