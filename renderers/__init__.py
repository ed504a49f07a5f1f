"""The built-in renderers of quizbank, registered through entry points like any plug-in."""
