from reviewtui.cli import run

run()
