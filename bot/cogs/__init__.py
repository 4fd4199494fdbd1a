"""The cogs every game shares: `/game`, `/mod` and the reaction listener."""
