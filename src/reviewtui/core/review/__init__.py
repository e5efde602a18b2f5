"""The review's pure rooms: the decision log and the disk planner."""
