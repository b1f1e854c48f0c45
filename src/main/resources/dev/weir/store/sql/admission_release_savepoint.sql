-- Ends the savepoint of an admitted multi-queue submission, keeping its work.
RELEASE SAVEPOINT weir_admission
