-- Opens a savepoint around a submission that spans several bounded queues (AdmissionSlots.insert).
SAVEPOINT weir_admission
