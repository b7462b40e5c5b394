//! OTLP traces (being written).
