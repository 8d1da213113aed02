from dynamo_schema._cli._main import main

raise SystemExit(main())
