from reviewtui.cli import main

raise SystemExit(main())
