//! Approved templates sent to one customer or to many (a bulk job), and what the inbox shows of
//! a sent template.

use std::collections::BTreeMap;

use parley_actors::conversation::{ConversationKey, OutgoingMessage};
use serde_json::{Value, json};

use super::SendError;
use super::upload::Upload;
use super::{Sender, Sending, Sent};
use crate::customer::{CustomerKey, address};
use crate::media::{MediaKind, check_upload};
use crate::outbox::{Delivery, UPLOAD_KEY};
use crate::store::{SendJob, TemplateRow};
use crate::templates::catalog::sync_templates;

/// A template send as the agent asked for it.
pub struct TemplateRequest {
    pub name: String,
    pub language: String,
    /// The send's components (parameters), as the Cloud API takes them.
    pub components: Value,
    /// The number the client believes it sends from, checked against the business's.
    pub phone_number_id: Option<String>,
    /// A file for the header's media parameter.
    pub header_file: Option<Upload>,
}

/// Who a template goes to.
pub enum Recipients {
    One(CustomerKey),
    /// A bulk job: distinct phone numbers, in order, each with its own variable values (column
    /// name to value, see `templates::variables`), which override the send's.
    Many(Vec<(String, BTreeMap<String, String>)>),
}

/// What a template send came to.
pub enum TemplateSent {
    One(Sent),
    /// A bulk job was started: its id and size.
    Job {
        id: String,
        total: i64,
    },
}

impl Sending {
    /// Sends an approved template to one customer, or starts a bulk job.
    pub async fn send_template(
        &self,
        business_id: &str,
        user_id: &str,
        request: TemplateRequest,
        recipients: Recipients,
    ) -> Result<TemplateSent, SendError> {
        self.business_sending_from(
            business_id,
            request.phone_number_id.as_deref(),
            "phone_number_id",
        )
        .await?;
        let (name, language) = (request.name, request.language);
        let template = self
            .approved_template(business_id, &name, &language)
            .await?;
        let mut components = request.components;
        let mut upload = None;
        if let Some(file) = &request.header_file {
            let checked = check_upload(&file.bytes, None)?;
            let media_id = uuid::Uuid::new_v4().simple().to_string();
            let kept = self
                .keep_upload(business_id, &media_id, file, checked)
                .await?;
            let Some(pointer) = point_header_media(&mut components, kept.kind, &media_id) else {
                return Err(SendError::Invalid(format!(
                    "The template's header takes no {} parameter for media_file",
                    kept.kind.name()
                )));
            };
            upload = Some(
                json!({"media_id": media_id, "pointer": format!("/template/components{pointer}")}),
            );
        }
        let mut payload = json!({
            "messaging_product": "whatsapp", "recipient_type": "individual", "type": "template",
            "template": {"name": name, "language": {"code": language}, "components": components},
        });
        if let Some(upload) = upload {
            payload[UPLOAD_KEY] = upload;
        }
        let sender = self.sender(business_id, user_id).await?;
        match recipients {
            Recipients::One(to) => {
                let content = rendered(&template, &components);
                let delivery = self
                    .send_template_to(
                        business_id,
                        to.as_str(),
                        uuid::Uuid::new_v4().to_string(),
                        &payload,
                        content,
                        &sender,
                    )
                    .await?;
                Ok(TemplateSent::One(Sent {
                    delivery,
                    media_url: None,
                }))
            }
            Recipients::Many(phones) => {
                let job = SendJob {
                    business_id: business_id.to_string(),
                    id: super::bulk::new_job_id(),
                    template_name: name,
                    language_code: language,
                    payload: payload.to_string(),
                    sender_name: sender.name,
                    total: phones.len() as i64,
                    finished_at: None,
                };
                let (id, total) = (job.id.clone(), job.total);
                self.start_job(job, phones).await?;
                Ok(TemplateSent::Job { id, total })
            }
        }
    }

    /// The approved template `name` in `language`; the list is synced from the provider first
    /// when the store does not know it approved.
    async fn approved_template(
        &self,
        business_id: &str,
        name: &str,
        language: &str,
    ) -> Result<TemplateRow, SendError> {
        let mut template = self
            .store
            .template_by_name(business_id, name, language)
            .await?;
        if template.as_ref().is_none_or(|t| t.status != "APPROVED") {
            sync_templates(&self.store, self.provider.as_ref(), business_id).await?;
            template = self
                .store
                .template_by_name(business_id, name, language)
                .await?;
        }
        match template {
            Some(t) if t.status == "APPROVED" => Ok(t),
            Some(t) => Err(SendError::Invalid(format!(
                "Template {name} ({language}) is {}; only APPROVED templates can be sent",
                t.status
            ))),
            None => Err(SendError::NotFound(format!(
                "No template {name} ({language})"
            ))),
        }
    }

    /// Sends one template message through the outbox (templates are allowed outside the window).
    pub(super) async fn send_template_to(
        &self,
        business_id: &str,
        phone: &str,
        client_id: String,
        base: &Value,
        content: Value,
        sender: &Sender,
    ) -> Result<Delivery, SendError> {
        let key = ConversationKey {
            business_id: business_id.to_string(),
            phone: phone.to_string(),
        };
        let mut payload = base.clone();
        address(&mut payload, phone);
        let message = OutgoingMessage {
            client_id,
            kind: "template".into(),
            content,
            sender_name: sender.name.clone(),
            sent_by: sender.user_id.clone(),
            payload,
        };
        Ok(self.outbox.send(key, message).await?)
    }
}

/// Points the header's media parameter of `kind` at the kept file `media_id`, so the stored
/// message names it (served at `/api/media/{id}`); answers the parameter's id pointer within the
/// components, where the outbox puts the provider's id when it uploads the file, or none when the
/// header takes no such parameter.
fn point_header_media(components: &mut Value, kind: MediaKind, media_id: &str) -> Option<String> {
    let name = kind.name();
    let components = components.as_array_mut()?;
    let (i, j) = components.iter().enumerate().find_map(|(i, c)| {
        let header = c
            .get("type")
            .and_then(Value::as_str)?
            .eq_ignore_ascii_case("header");
        let j = c
            .get("parameters")?
            .as_array()?
            .iter()
            .position(|p| p.get("type").and_then(Value::as_str) == Some(name))?;
        header.then_some((i, j))
    })?;
    components[i]["parameters"][j][name] = json!({"id": media_id});
    Some(format!("/{i}/parameters/{j}/{name}/id"))
}

/// Replaces `{{1}}` / `{{name}}` in `text` with the send's text parameters.
fn fill(text: &str, parameters: &[Value]) -> String {
    let mut out = text.to_string();
    for (i, p) in parameters.iter().enumerate() {
        let value = p.get("text").and_then(Value::as_str).unwrap_or_default();
        let name = p
            .get("parameter_name")
            .and_then(Value::as_str)
            .map(String::from)
            .unwrap_or_else(|| (i + 1).to_string());
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

/// What the inbox shows of a sent template: header, body, footer and buttons with the
/// variables filled in, plus the components as sent.
pub fn rendered(template: &TemplateRow, components: &Value) -> Value {
    let defined: Value = serde_json::from_str(&template.components).unwrap_or(json!([]));
    let params = |kind: &str| -> Vec<Value> {
        components
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| {
                c.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.eq_ignore_ascii_case(kind))
            })
            .and_then(|c| c.get("parameters").and_then(Value::as_array).cloned())
            .unwrap_or_default()
    };
    let mut structure = json!({"name": template.name, "language": template.language});
    for component in defined.as_array().into_iter().flatten() {
        let kind = component
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_uppercase();
        let text = component
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match kind.as_str() {
            "HEADER" => {
                structure["header"] = json!({
                    "format": component.get("format"),
                    "text": fill(text, &params("header")),
                });
            }
            "BODY" => structure["body"] = json!(fill(text, &params("body"))),
            "FOOTER" => structure["footer"] = json!(text),
            "BUTTONS" => {
                structure["buttons"] = component.get("buttons").cloned().unwrap_or(json!([]))
            }
            _ => {}
        }
    }
    json!({
        "text": structure.get("body").cloned().unwrap_or(Value::Null),
        "template_structure": structure,
        "components": components,
    })
}
