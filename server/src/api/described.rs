//! Types that exist only to describe, in the OpenAPI document, bodies their handlers read
//! without a typed extractor: multipart forms read part by part (`multipart::Form`) and the
//! server-sent events of the stream routes.

use utoipa::ToSchema;

/// A contacts file (CSV, Excel or vCard) as the `file` part.
#[derive(ToSchema)]
pub struct FileUpload {
    #[schema(value_type = Vec<u8>, format = Binary)]
    pub file: String,
}

/// A new template: its JSON, and a file for a media header.
#[derive(ToSchema)]
pub struct TemplateUpload {
    /// The template as JSON (name, language, category, components).
    pub template: String,
    #[schema(value_type = Option<Vec<u8>>, format = Binary)]
    pub file: Option<String>,
}

/// A recipients file for the bulk sender.
#[derive(ToSchema)]
pub struct RecipientsUpload {
    #[schema(value_type = Vec<u8>, format = Binary)]
    pub file: String,
    /// The template's variable names as a JSON list.
    pub variables: Option<String>,
}

/// A canned reply as a form: the JSON body's fields and a media `file`.
#[derive(ToSchema)]
pub struct CannedUpload {
    pub shortcut: Option<String>,
    pub text: Option<String>,
    /// `true` or `false`.
    pub remove_media: Option<String>,
    #[schema(value_type = Option<Vec<u8>>, format = Binary)]
    pub file: Option<String>,
}

/// One server-sent event: `event: name` and `data:` lines (docs/ARCHITECTURE.md, Channels and
/// events).
#[derive(ToSchema)]
pub struct StreamEvent {
    /// `ready`, `new_message`, `message_status_update`, `notification`, …
    pub event: String,
    /// The event's JSON object, as text.
    pub data: String,
}
