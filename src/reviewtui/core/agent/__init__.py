"""What an agent is told: compact answers and outlines for `reviewtui mcp` and `reviewtui
view`.
"""
