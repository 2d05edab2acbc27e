//! What the handlers' own annotations cannot say in the OpenAPI document: the shape of the
//! customer key every `{phone}` path names, and which answers give the ids later calls take
//! (OpenAPI links), so a client generator, or a fuzzer, can follow a created item to its
//! update and delete.

use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::{ObjectBuilder, OpenApi, Type};

use crate::customer::MAX_BSUID_ID;

/// A phone number's digits with the country code (a leading `+` is dropped), or a BSUID: two
/// capital letters, a dot, then letters and digits in dotted parts (`crate::customer`).
const CUSTOMER_KEY_PATTERN: &str = r"^\+?[0-9]{6,15}$|^[A-Z]{2}(\.[A-Za-z0-9]+)+$";
/// The longest key: a BSUID's country, its dot and the most characters after it.
const CUSTOMER_KEY_MAX_LENGTH: usize = "US.".len() + MAX_BSUID_ID;

/// An answer that creates an item, and the calls that take the item's id.
struct CreatedItem {
    /// The `POST` path that creates it; its answer is a 201.
    path: &'static str,
    /// The parameter the later calls name it by, and where the answer holds its value.
    parameter: &'static str,
    value: &'static str,
    /// Each link's name and the operation it leads to.
    targets: &'static [(&'static str, &'static str)],
}

const LINKS: [CreatedItem; 5] = [
    CreatedItem {
        path: "/api/labels",
        parameter: "id",
        value: "$response.body#/id",
        targets: &[("update", "update_label"), ("delete", "delete_label")],
    },
    CreatedItem {
        path: "/api/canned-replies",
        parameter: "id",
        value: "$response.body#/id",
        targets: &[
            ("update", "update_canned_reply"),
            ("delete", "delete_canned_reply"),
        ],
    },
    CreatedItem {
        path: "/api/automated-replies",
        parameter: "id",
        value: "$response.body#/_id",
        targets: &[
            ("update", "update_reply"),
            ("delete", "delete_reply"),
            ("flow_steps", "list_flow_steps"),
        ],
    },
    CreatedItem {
        path: "/identity/users/agents",
        parameter: "id",
        value: "$response.body#/_id",
        targets: &[("update", "update_agent"), ("delete", "delete_agent")],
    },
    CreatedItem {
        path: "/api/contacts/add",
        parameter: "phone",
        value: "$response.body#/phone_number",
        targets: &[
            ("history", "conversation_history"),
            ("mark_as_read", "mark_as_read"),
            ("status", "set_status"),
            ("assignment", "set_assignment"),
            ("note", "add_note"),
            ("presence", "post_presence"),
            ("labels", "set_conversation_labels"),
            ("delete", "delete_contact"),
        ],
    },
];

/// Gives every `{phone}` path parameter the customer key's description and shape.
pub struct CustomerKeys;

impl Modify for CustomerKeys {
    fn modify(&self, openapi: &mut OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                describe_customer_key(operation);
            }
        }
    }
}

/// Adds the links to the serialised document. They are written as JSON because utoipa's `Link`
/// serialises its fields in snake case (`operation_id`), which OpenAPI readers do not know.
pub fn add_links(document: &mut Value) {
    for item in LINKS {
        let response = &mut document["paths"][item.path]["post"]["responses"]["201"];
        assert!(
            response.is_object(),
            "the OpenAPI document has no 201 answer of POST {}",
            item.path
        );
        for (name, operation_id) in item.targets {
            response["links"][*name] = json!({
                "operationId": operation_id,
                "parameters": { item.parameter: item.value },
            });
        }
    }
}

/// The `{phone}` path parameter of an operation: its description and pattern.
fn describe_customer_key(operation: &mut Operation) {
    let parameters = operation.parameters.iter_mut().flatten();
    for parameter in parameters.filter(|p| p.name == "phone" && p.parameter_in == ParameterIn::Path)
    {
        parameter.description = Some(
            "The customer's key: their phone number's digits with the country code, or their \
             business-scoped user id (BSUID) such as `US.13491208655302741918`"
                .into(),
        );
        parameter.schema = Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(CUSTOMER_KEY_PATTERN))
                .max_length(Some(CUSTOMER_KEY_MAX_LENGTH))
                .into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use utoipa::OpenApi;

    use crate::api::openapi::ApiDoc;

    #[test]
    fn every_link_names_an_operation_of_the_document() {
        let mut document = serde_json::to_value(ApiDoc::openapi()).expect("serialises");
        super::add_links(&mut document);
        let operation_ids: Vec<&str> = document["paths"]
            .as_object()
            .expect("paths")
            .values()
            .flat_map(|item| item.as_object().expect("a path item").values())
            .filter_map(|operation| operation["operationId"].as_str())
            .collect();
        let mut links = 0;
        for item in document["paths"].as_object().expect("paths").values() {
            for operation in item.as_object().expect("a path item").values() {
                for response in operation["responses"].as_object().into_iter().flatten() {
                    for link in response.1["links"].as_object().into_iter().flatten() {
                        let target = link.1["operationId"].as_str().expect("an operation id");
                        assert!(operation_ids.contains(&target), "no operation {target}");
                        links += 1;
                    }
                }
            }
        }
        let declared: usize = super::LINKS.iter().map(|item| item.targets.len()).sum();
        assert_eq!(links, declared);
    }

    #[test]
    fn the_customer_key_pattern_matches_what_the_server_takes() {
        let pattern = regex::Regex::new(super::CUSTOMER_KEY_PATTERN).expect("a regex");
        for key in [
            "15551234567",
            "+15551234567",
            "US.13491208655302741918",
            "US.ENT.118157",
        ] {
            assert!(pattern.is_match(key), "{key}");
            crate::customer::CustomerKey::parse(key).expect("a key");
        }
        for text in [
            "12345",
            "1555123456789012",
            "us.1349",
            "US.",
            "US..1",
            "1_15551234567",
        ] {
            assert!(!pattern.is_match(text), "{text}");
            assert!(crate::customer::CustomerKey::parse(text).is_err(), "{text}");
        }
    }
}
