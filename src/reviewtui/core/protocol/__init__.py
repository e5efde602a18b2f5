"""Reading File Ops replies and sessions."""
