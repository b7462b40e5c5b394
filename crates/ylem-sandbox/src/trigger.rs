//! External triggers as the open-source server runs them: a started run's
//! input becomes an initial `external_trigger` task's output (`{}` means the
//! task's configured test data, no input means `null`), and the seeded
//! pipeline that begins with one, to send inputs to.

use super::store::TaskDef;

/// The task type that hands a run's input on.
pub const TRIGGER: &str = "external_trigger";

/// The seeded pipeline that begins with an external trigger and whose
/// started runs always succeed.
pub const TRIGGERED_NAME: &str = "order-intake-webhook";

/// Its trigger's test data: an order, as the pipeline expects one.
const ORDER_TEST_DATA: &str = r#"{"order_id":1001,"customer":"test@example.com","items":[{"sku":"TEST-1","qty":1}],"test":true}"#;

/// The configured test data of an external trigger task named `name`.
pub fn test_data(name: &str) -> String {
    serde_json::json!({ "test": true, "trigger": name }).to_string()
}

/// Make `task` the trigger of the order pipeline.
pub fn take_orders(task: &mut TaskDef) {
    task.name = "external-trigger-order".into();
    task.test_data = ORDER_TEST_DATA.into();
}

/// What an initial external trigger outputs for a run started with `input`
/// (`services/schedule/publisher.go`: an empty body is JSON `null`;
/// `services/messaging/external_trigger.go`: exactly `{}` is the test data;
/// the runner passes the input on as it is).
pub fn output(input: &[u8], test_data: &str) -> String {
    match input {
        b"" => "null".to_string(),
        b"{}" => test_data.to_string(),
        other => String::from_utf8_lossy(other).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_null_and_test_data() {
        assert_eq!(output(b"", "T"), "null");
        assert_eq!(output(b"{}", "T"), "T");
        // Only exactly `{}`: the server compares the bytes.
        assert_eq!(output(b"{ }", "T"), "{ }");
        assert_eq!(output(b"[1,2]", "T"), "[1,2]");
        assert_eq!(
            test_data("external-trigger-webhook"),
            r#"{"test":true,"trigger":"external-trigger-webhook"}"#
        );
    }
}
