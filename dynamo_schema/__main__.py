from dynamo_schema._cli import main

raise SystemExit(main())
