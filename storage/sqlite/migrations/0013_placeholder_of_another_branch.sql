-- Schema 13: a stand-in. Number 13 belongs to another branch of session 37; this empty migration only keeps the
-- numbers gap-free on the claims branch (wt-claims) until that branch's 0013 is merged beside it. At the merge,
-- DROP THIS FILE (the loader refuses two files numbered 0013, so it cannot be forgotten).
SELECT 1;
