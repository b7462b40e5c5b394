//! OpenLineage run events (being written).
