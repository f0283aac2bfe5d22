/** /dashboard: the learner's dashboard widget, with the server's extension store links. */
import { client } from '@widgets/core/api';
import { Dashboard } from '@widgets/dashboard/Dashboard';
import { appConfig } from '../../lib/config';

export default function DashboardPage() {
  return <Dashboard client={client} storeUrls={appConfig().extension} />;
}
