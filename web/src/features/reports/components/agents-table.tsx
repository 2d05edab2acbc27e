import { useTranslation } from 'react-i18next';
import type { ReportAgent } from '../api/reports-api';
import { formatCount, formatDuration } from '../report-view';

/** Each team member: conversations they wrote in, and how fast they answered first. */
export function AgentsTable({ agents }: { agents: ReportAgent[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="panel-card report-agents" aria-labelledby="report-agents-title">
      <h2 id="report-agents-title">{t('reports.agents')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('reports.agent')}</th>
            <th scope="col">{t('reports.handled')}</th>
            <th scope="col">{t('reports.firstResponseMedian')}</th>
          </tr>
        </thead>
        <tbody>
          {agents.map((agent) => (
            <tr key={agent.user_id}>
              <th scope="row">{agent.name}</th>
              <td>{formatCount(agent.conversations_handled, i18n.language)}</td>
              <td>{formatDuration(agent.first_response_median_secs, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
