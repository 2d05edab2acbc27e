import { Fragment, useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../../lib/api/client';
import { useToast } from '../../../lib/toast/toast-context';
import { listAgents, type Agent } from '../../../lib/api/agents';
import { createAgent, deleteAgent, updateAgent } from '../api/profile-api';
import { DeleteAgentModal } from './delete-agent-modal';
import { agentFieldOf, agentFormFrom, agentPayload, EMPTY_AGENT, type AgentForm } from '../profile-forms';

const AGENT_FIELDS: { name: keyof AgentForm; label: string; type: string; autoComplete: string }[] = [
  { name: 'firstName', label: 'auth.firstName', type: 'text', autoComplete: 'off' },
  { name: 'lastName', label: 'auth.lastName', type: 'text', autoComplete: 'off' },
  { name: 'username', label: 'auth.username', type: 'text', autoComplete: 'off' },
  { name: 'email', label: 'auth.email', type: 'email', autoComplete: 'off' },
  { name: 'password', label: 'auth.password', type: 'password', autoComplete: 'new-password' },
];

/** The owner's agents: a form that creates or edits one, the list, and delete with confirmation. */
export function AgentsSection() {
  const { t } = useTranslation();
  const showToast = useToast();
  const [agents, setAgents] = useState<Agent[] | null>(null);
  const [form, setForm] = useState<AgentForm>(EMPTY_AGENT);
  const [editing, setEditing] = useState<Agent | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  /** The server's refusal, shown under the field it names until that field changes. */
  const [problem, setProblem] = useState<{ field: keyof AgentForm; text: string } | null>(null);
  const ids = useId();

  const reload = useCallback(async () => {
    try {
      setAgents(await listAgents());
    } catch (error) {
      showToast(messageOf(error, t('failedToLoadData')), 'error');
      setAgents((current) => current ?? []);
    }
  }, [showToast, t]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // Edit fills the form above the list, off screen on a phone: its first field takes the focus,
  // which brings the form into view.
  useEffect(() => {
    if (editing) document.getElementById(`${ids}-firstName`)?.focus();
  }, [editing, ids]);

  const startEdit = (agent: Agent) => {
    setProblem(null);
    setEditing(agent);
    setForm(agentFormFrom(agent));
  };
  const resetForm = () => {
    setProblem(null);
    setEditing(null);
    setForm(EMPTY_AGENT);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      if (editing) {
        await updateAgent(editing._id, agentPayload(form, true));
        showToast(t('agentUpdatedSuccessfully'), 'success');
      } else {
        await createAgent(agentPayload(form, false));
        showToast(t('agentCreatedSuccessfully'), 'success');
      }
      resetForm();
    } catch (error) {
      const text = messageOf(error, t('operationFailed'));
      const field = error instanceof ApiError ? agentFieldOf([error.detail, error.serverMessage]) : null;
      setProblem(field && { field, text });
      if (field) document.getElementById(`${ids}-${field}`)?.focus();
      showToast(text, 'error');
    } finally {
      setSaving(false);
      await reload();
    }
  };

  const confirmDelete = async (agent: Agent) => {
    try {
      await deleteAgent(agent._id);
      showToast(t('agentDeletedSuccessfully'), 'success');
      if (editing?._id === agent._id) resetForm();
    } catch (error) {
      showToast(messageOf(error, t('deleteFailed')), 'error');
    } finally {
      setDeleting(null);
      await reload();
    }
  };

  return (
    <section className="panel-card" aria-labelledby="agents-heading">
      <h2 id="agents-heading">{t('profile.agentsTitle')}</h2>
      <form className="form agent-form" aria-label={editing ? t('profile.editAgent') : t('profile.addAgent')} onSubmit={(event) => void submit(event)}>
        <h3>{editing ? t('profile.editAgent') : t('profile.addAgent')}</h3>
        {AGENT_FIELDS.map((field) => (
          <Fragment key={field.name}>
            <label>
              {t(field.label)}
              <input
                id={`${ids}-${field.name}`}
                type={field.type}
                value={form[field.name]}
                autoComplete={field.autoComplete}
                required={field.name !== 'password' || !editing}
                aria-invalid={problem?.field === field.name}
                aria-describedby={problem?.field === field.name ? `${ids}-${field.name}-error` : undefined}
                onChange={(event) => {
                  if (problem?.field === field.name) setProblem(null);
                  setForm((current) => ({ ...current, [field.name]: event.target.value }));
                }}
              />
            </label>
            {problem?.field === field.name && (
              <span id={`${ids}-${field.name}-error`} className="form-error">
                {problem.text}
              </span>
            )}
          </Fragment>
        ))}
        {editing && <p className="note">{t('profile.passwordKept')}</p>}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={saving}>
            {editing ? t('profile.updateAgent') : t('profile.createAgent')}
          </button>
          {editing && (
            <button type="button" onClick={resetForm}>
              {t('cancel')}
            </button>
          )}
        </div>
      </form>
      {agents === null ? (
        <p className="muted">{t('loading')}</p>
      ) : agents.length === 0 ? (
        <p className="muted">{t('profile.noAgents')}</p>
      ) : (
        <ul className="agent-list" aria-label={t('profile.agentList')}>
          {agents.map((agent) => {
            const name = `${agent.firstName} ${agent.lastName}`;
            return (
              <li key={agent._id} aria-label={name}>
                <div className="agent-main">
                  <strong>{name}</strong>
                  {/* Latin handles keep their order in a right-to-left page: "@name", never "name@". */}
                  <span className="muted">
                    <bdi dir="ltr">@{agent.username}</bdi> · <bdi dir="ltr">{agent.email}</bdi>
                  </span>
                </div>
                <button type="button" onClick={() => startEdit(agent)} aria-label={t('profile.editNamed', { name })}>
                  {t('profile.edit')}
                </button>
                <button type="button" className="danger" onClick={() => setDeleting(agent)} aria-label={t('profile.deleteNamed', { name })}>
                  {t('profile.delete')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {deleting && <DeleteAgentModal agent={deleting} onCancel={() => setDeleting(null)} onConfirm={() => confirmDelete(deleting)} />}
    </section>
  );
}
