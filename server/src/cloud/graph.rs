//! The Graph API bodies the provider client sends and reads (other than message and template
//! bodies, which the services build). Answers are read leniently: a missing id is reported by
//! the client by name, not as a parse failure.

use serde::{Deserialize, Serialize};

use super::lenient;

/// `POST /{phone-number-id}/messages` marking an inbound message read.
#[derive(Debug, Serialize)]
pub struct MarkRead<'a> {
    pub messaging_product: &'static str,
    /// Always `read`.
    pub status: &'static str,
    pub message_id: &'a str,
}

impl<'a> MarkRead<'a> {
    pub fn new(message_id: &'a str) -> MarkRead<'a> {
        MarkRead {
            messaging_product: "whatsapp",
            status: "read",
            message_id,
        }
    }
}

/// The answer to a send: `{messaging_product, contacts: [{input, wa_id}], messages: [{id}]}`.
#[derive(Debug, Default, Deserialize)]
pub struct SendAnswer {
    #[serde(default, deserialize_with = "lenient::items")]
    pub messages: Vec<Created>,
}

impl SendAnswer {
    /// The provider's id of the message sent (`wamid.…`).
    pub fn message_id(self) -> Option<String> {
        self.messages.into_iter().next()?.id
    }
}

/// Something the Graph API created, named by its id: a sent message, an uploaded file, an
/// upload session.
#[derive(Debug, Default, Deserialize)]
pub struct Created {
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: Option<String>,
}

/// `GET /{media-id}`: where to download a file for the next five minutes.
#[derive(Debug, Default, Deserialize)]
pub struct MediaInfo {
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub mime_type: Option<String>,
}

/// One page of `GET /{waba-id}/message_templates`.
#[derive(Debug, Default, Deserialize)]
pub struct TemplatePage {
    /// Templates as the Graph API describes them; the services read them.
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub data: Vec<serde_json::Value>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub paging: Paging,
}

#[derive(Debug, Default, Deserialize)]
pub struct Paging {
    /// The next page's full URL; absent on the last page.
    #[serde(default, deserialize_with = "lenient::string")]
    pub next: Option<String>,
}

/// The end of a resumable upload: the handle a template's header example names.
#[derive(Debug, Default, Deserialize)]
pub struct UploadHandle {
    #[serde(default, deserialize_with = "lenient::string")]
    pub h: Option<String>,
}

/// A refusal: `{"error": {"message", "type", "code", "error_data": {"details"}, "fbtrace_id"}}`.
#[derive(Debug, Default, Deserialize)]
pub struct GraphErrorBody {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub error: GraphError,
}

#[derive(Debug, Default, Deserialize)]
pub struct GraphError {
    #[serde(default, deserialize_with = "lenient::string")]
    pub message: Option<String>,
    /// The code Parley acts on (rate limit, closed window, …); 0 when absent.
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub code: i64,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub error_data: ErrorData,
}

#[derive(Debug, Default, Deserialize)]
pub struct ErrorData {
    /// The most specific text Meta gives; preferred over `message`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub details: Option<String>,
}
