"""`python -m quizbank` runs the command line."""

from quizbank.cli import main

raise SystemExit(main())
