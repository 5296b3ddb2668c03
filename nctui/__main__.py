from nctui.cli import main

raise SystemExit(main())
