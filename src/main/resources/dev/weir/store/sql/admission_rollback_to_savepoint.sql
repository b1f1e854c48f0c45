-- Undoes what the earlier queues of a refused multi-queue submission admitted; the caller's transaction goes on.
ROLLBACK TO SAVEPOINT weir_admission
