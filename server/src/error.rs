//! One error type for the HTTP surface: every refusal answers
//! `{"detail": human text, "message": same or the spec's fixed text, "code": "snake_case"}`.

use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::auth::error::AuthError;
use crate::canned::CannedError;
use crate::cloud::EnvelopeError;
use crate::customer::InvalidCustomerKey;
use crate::inbound::InboundError;
use crate::media::MediaError;
use crate::multipart::FormError;
use crate::outbox::OutboxError;
use crate::phone::InvalidPhone;
use crate::plain_text::ControlCharacter;
use crate::push::SubscriptionError;
use crate::refusal::Refusal;
use crate::replies::form::ReplyFormError;
use crate::reports::InvalidReport;
use crate::sending::SendError;
use crate::store;
use crate::team::TeamError;
use crate::templates::catalog::CatalogError;

/// The text the web client refreshes on; it must stay exactly this.
pub const TOKEN_EXPIRED: &str = "Forbidden: Token expired";

/// The answer of a change that has nothing more to say: `{"status": "success"}`.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Success {
    /// Always `success`.
    status: &'static str,
}

/// The one `Success` answer.
pub const SUCCESS: Success = Success { status: "success" };

/// The body of every refusal.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    detail: String,
    /// The same text, or the spec's fixed text where it has one.
    message: String,
    /// A stable `snake_case` name of the refusal, for programs.
    code: &'static str,
    /// Who holds the conversation, with `assigned_to_other`.
    #[serde(skip_serializing_if = "Option::is_none")]
    assignee: Option<store::Person>,
    /// Which provider id another business holds, with `account_taken`.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'static str>,
    /// More than `detail` says, where there is more: the provider's `error_data.details`, or
    /// what in a field was wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    /// Wrong credentials keep the fixed text of the spec as `message`.
    #[error("Invalid credentials")]
    InvalidCredentials,
    #[error("{TOKEN_EXPIRED}")]
    TokenExpired,
    /// The account was deleted, its password changed or it signed out everywhere since the
    /// token was issued.
    #[error("Session revoked; please sign in again")]
    TokenRevoked,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// Another canned reply of the business has this shortcut.
    #[error("{0}")]
    ShortcutTaken(String),
    /// Another business holds this provider account; the code names which id.
    #[error("This {} is already used by another business", .0.field())]
    AccountTaken(store::Account),
    /// Someone else holds the conversation; the answer names them.
    #[error("This conversation is assigned to {}", .0.name)]
    AssignedToOther(store::Person),
    /// A known path asked with a method it is not served with; `allow` lists those it is.
    #[error("{method} is not allowed here; use {allow}")]
    MethodNotAllowed { method: String, allow: String },
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UriTooLong(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("Too many attempts; try again in {retry_after} seconds")]
    TooManyRequests { retry_after: u64 },
    #[error("{0}")]
    NotImplemented(String),
    #[error("{0}")]
    Unavailable(String),
    /// The provider refused or could not be reached, for a reason the agent cannot fix here.
    #[error("{0}")]
    BadGateway(String),
    #[error("Internal server error")]
    Internal(#[from] anyhow::Error),
    /// A refusal with more to say than its text; answered as `error` is, with `details`.
    #[error("{error}")]
    Detailed {
        error: Box<ApiError>,
        details: String,
    },
}

impl ApiError {
    fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::InvalidCredentials => "invalid_credentials",
            ApiError::TokenExpired => "token_expired",
            ApiError::TokenRevoked => "token_revoked",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::ShortcutTaken(_) => "shortcut_taken",
            ApiError::AccountTaken(store::Account::WabaId) => "waba_id_taken",
            ApiError::AccountTaken(store::Account::PhoneNumberId) => "phone_number_id_taken",
            ApiError::AssignedToOther(_) => "assigned_to_other",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::UriTooLong(_) => "uri_too_long",
            ApiError::Unsupported(_) => "unsupported_media_type",
            ApiError::Unprocessable(_) => "validation_failed",
            ApiError::TooManyRequests { .. } => "too_many_requests",
            ApiError::NotImplemented(_) => "not_implemented",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::BadGateway(_) => "provider_error",
            ApiError::Internal(_) => "internal",
            ApiError::Detailed { error, .. } => error.code(),
        }
    }
}

impl From<store::Error> for ApiError {
    fn from(err: store::Error) -> Self {
        match err {
            store::Error::NotFound(text) => ApiError::NotFound(text),
            store::Error::Conflict(text) => ApiError::Conflict(text),
            store::Error::AccountTaken(account) => ApiError::AccountTaken(account),
            store::Error::Db(err) => {
                ApiError::Internal(anyhow::Error::new(err).context("database error"))
            }
            store::Error::Other(err) => ApiError::Internal(err),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(err: AuthError) -> Self {
        match err {
            AuthError::Expired => ApiError::TokenExpired,
            AuthError::Revoked => ApiError::TokenRevoked,
            AuthError::Refused(text) => ApiError::Unauthorized(text),
            AuthError::NotConfigured(text) => ApiError::NotImplemented(text),
            AuthError::Unreachable(text) => ApiError::Unavailable(text),
            AuthError::Store(err) => err.into(),
            AuthError::Internal(err) => ApiError::Internal(err),
        }
    }
}

impl From<InvalidCustomerKey> for ApiError {
    fn from(err: InvalidCustomerKey) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<InvalidPhone> for ApiError {
    fn from(err: InvalidPhone) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<FormError> for ApiError {
    fn from(err: FormError) -> Self {
        match err {
            FormError::FieldTooLong(_) | FormError::TooLarge => {
                ApiError::PayloadTooLarge(err.to_string())
            }
            FormError::ControlCharacter(_) => ApiError::Unprocessable(err.to_string()),
            FormError::NotMultipart => ApiError::Unsupported(err.to_string()),
            FormError::TooManyParts | FormError::Invalid(_) => {
                ApiError::BadRequest(err.to_string())
            }
        }
    }
}

impl From<ControlCharacter> for ApiError {
    fn from(err: ControlCharacter) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<Refusal> for ApiError {
    fn from(err: Refusal) -> Self {
        match err {
            Refusal::Rejected {
                text,
                details: Some(details),
            } => ApiError::Detailed {
                error: Box::new(ApiError::Unprocessable(text)),
                details,
            },
            Refusal::Rejected { text, .. } => ApiError::Unprocessable(text),
            Refusal::Unreachable(text) => ApiError::BadGateway(text),
        }
    }
}

impl From<MediaError> for ApiError {
    fn from(err: MediaError) -> Self {
        match err {
            MediaError::Unsupported => ApiError::Unsupported(err.to_string()),
            MediaError::Invalid(text) => ApiError::Unprocessable(text),
            MediaError::Io(err) => ApiError::Internal(err.into()),
            MediaError::Store(err) => err.into(),
        }
    }
}

impl From<OutboxError> for ApiError {
    fn from(err: OutboxError) -> Self {
        match err {
            OutboxError::Store(err) => err.into(),
            OutboxError::Media(err) => err.into(),
            OutboxError::NotConfigured(text) => ApiError::Unavailable(text),
            OutboxError::MediaUnavailable(_) => ApiError::NotFound(err.to_string()),
            OutboxError::Conversation(_) | OutboxError::Vanished | OutboxError::Journal(_) => {
                ApiError::Internal(anyhow::Error::new(err))
            }
        }
    }
}

impl From<SendError> for ApiError {
    fn from(err: SendError) -> Self {
        match err {
            SendError::Invalid(text) => ApiError::Unprocessable(text),
            SendError::Forbidden(text) => ApiError::Forbidden(text),
            SendError::NotFound(text) => ApiError::NotFound(text),
            SendError::Store(err) => err.into(),
            SendError::Media(err) => err.into(),
            SendError::Outbox(err) => err.into(),
            SendError::Refused(err) => err.into(),
        }
    }
}

impl From<CatalogError> for ApiError {
    fn from(err: CatalogError) -> Self {
        match err {
            CatalogError::Rejected(text) => ApiError::Unprocessable(text),
            CatalogError::Unreachable(text) => ApiError::BadGateway(text),
            CatalogError::Store(err) => err.into(),
        }
    }
}

impl From<SubscriptionError> for ApiError {
    fn from(err: SubscriptionError) -> Self {
        match err {
            SubscriptionError::Malformed(text) => ApiError::BadRequest(text),
            SubscriptionError::Invalid(text) => ApiError::Unprocessable(text),
        }
    }
}

impl From<ReplyFormError> for ApiError {
    fn from(err: ReplyFormError) -> Self {
        match err {
            ReplyFormError::Invalid(_) => ApiError::Unprocessable(err.to_string()),
            ReplyFormError::TriggerTaken(_) => ApiError::Conflict(err.to_string()),
        }
    }
}

impl From<InvalidReport> for ApiError {
    fn from(err: InvalidReport) -> Self {
        ApiError::Unprocessable(err.0)
    }
}

impl From<TeamError> for ApiError {
    fn from(err: TeamError) -> Self {
        match err {
            TeamError::Invalid(text) => ApiError::Unprocessable(text),
            TeamError::Forbidden(text) => ApiError::Forbidden(text),
            TeamError::AssignedToOther(holder) => ApiError::AssignedToOther(holder),
            TeamError::Store(err) => err.into(),
        }
    }
}

impl From<CannedError> for ApiError {
    fn from(err: CannedError) -> Self {
        match err {
            CannedError::Invalid(text) => ApiError::Unprocessable(text),
            CannedError::ShortcutTaken(text) => ApiError::ShortcutTaken(text),
            CannedError::Media(err) => err.into(),
            CannedError::Store(err) => err.into(),
        }
    }
}

impl From<EnvelopeError> for ApiError {
    fn from(err: EnvelopeError) -> Self {
        ApiError::BadRequest(err.to_string())
    }
}

impl From<InboundError> for ApiError {
    fn from(err: InboundError) -> Self {
        match err {
            InboundError::NotPersisted(_) => ApiError::Internal(anyhow::anyhow!("{err}")),
            InboundError::Store(err) => err.into(),
            InboundError::Outbox(err) => err.into(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) | ApiError::InvalidCredentials | ApiError::TokenRevoked => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::TokenExpired | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_)
            | ApiError::ShortcutTaken(_)
            | ApiError::AccountTaken(_)
            | ApiError::AssignedToOther(_) => StatusCode::CONFLICT,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotImplemented(_) => StatusCode::NOT_IMPLEMENTED,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Detailed { error, .. } => error.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(err) = self {
            tracing::error!(error = ?err, "request failed");
        }
        let text = self.to_string();
        let mut response = HttpResponse::build(self.status_code());
        if let ApiError::TooManyRequests { retry_after } = self {
            response.insert_header(("Retry-After", retry_after.to_string()));
        }
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            response.insert_header(("Allow", allow.as_str()));
        }
        response.json(ErrorBody {
            detail: text.clone(),
            message: text,
            code: self.code(),
            assignee: match self {
                ApiError::AssignedToOther(holder) => Some(holder.clone()),
                _ => None,
            },
            field: match self {
                ApiError::AccountTaken(account) => Some(account.field()),
                _ => None,
            },
            details: match self {
                ApiError::Detailed { details, .. } => Some(details.clone()),
                _ => None,
            },
        })
    }
}

/// 404 for a path no route serves.
pub fn no_route(method: &Method, path: &str) -> ApiError {
    ApiError::NotFound(format!("No route for {method} {path}"))
}

/// The answer where no route takes the request: an unknown path, or one of the web app's asked
/// with a method other than GET or HEAD.
pub async fn unrouted(req: HttpRequest) -> ApiResult<HttpResponse> {
    Err(no_route(req.method(), req.path()))
}

/// Result of a handler or a store call.
pub type ApiResult<T> = Result<T, ApiError>;

/// A required text field of a request: present and not blank, else 422 naming it.
pub fn required(value: &Option<String>, field: &str) -> ApiResult<String> {
    non_blank(value).ok_or_else(|| ApiError::Unprocessable(format!("{field} is required")))
}

/// An optional text field: trimmed, and `None` when absent or blank.
pub fn non_blank(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(String::from)
}
