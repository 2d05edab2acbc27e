//! What the conversation list filters on besides its search: status, assignee and label.

/// Which conversations a list page shows by assignee.
pub enum AssigneeFilter {
    All,
    Unassigned,
    /// Assigned to this user.
    User(String),
}

/// What the list filters on besides the search: a status (`None` for all), the assignee, and a
/// label the conversations carry (`None`: any).
pub struct ListFilter {
    pub status: Option<String>,
    pub assignee: AssigneeFilter,
    pub label: Option<String>,
}

impl ListFilter {
    /// The filter as bound parameters: status (`all`), assignee kind, assignee id.
    pub(super) fn binds(&self) -> (&str, &str, &str) {
        let status = self.status.as_deref().unwrap_or("all");
        match &self.assignee {
            AssigneeFilter::All => (status, "all", ""),
            AssigneeFilter::Unassigned => (status, "unassigned", ""),
            AssigneeFilter::User(id) => (status, "user", id),
        }
    }
}
