/**
 * The roadmap catalogue (mentor §2.9): the public roadmaps as cards, each with Select, which opens the
 * prerequisite or assignment dialog. Loads through the host's client; reports through the host's events.
 */
import * as Catalogue from '@shared/contract/catalogue';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useEffect, useId } from 'react';
import { useCall } from '../core/useCall';
import { failure } from '../embed/failure';
import { Slot, useWidgetHost } from '../embed/host';
import { Loader } from '../ui/Loader';
import { RoadmapCatalogueProps } from './props';
import { RoadmapCard } from './RoadmapCard';
import { selectionText, useRoadmapSelection } from './selection';

export const DEFAULT_CATALOGUE_HEADING = 'Select Roadmap';

export function RoadmapCatalogue(input: RoadmapCatalogueProps) {
  const props = RoadmapCatalogueProps.parse(input);
  const { language, subject, topic } = props;
  const limit = props.limit ? Number(props.limit) : undefined;
  const heading = props.heading ?? DEFAULT_CATALOGUE_HEADING;
  const host = useWidgetHost();
  const headingId = useId();
  const selection = useRoadmapSelection();
  const list = useCall(
    (signal) =>
      host.client
        .call(Catalogue.roadmapListNoAuth, { query: { language, subject, topic }, signal })
        .then((r) => r.data),
    [host.client, language, subject, topic],
  );
  // what is shown: `limit` applies to the list the server sent
  const roadmaps = list.data ? list.data.slice(0, limit ?? list.data.length) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per load, and when the limit changes what is shown
  useEffect(() => {
    if (!roadmaps) return;
    host.emit('wm-load', { count: roadmaps.length });
    host.emit('wm-ready', { count: roadmaps.length });
  }, [list.data, limit]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per failure
  useEffect(() => {
    if (list.error) host.emit('wm-error', failure(selectionText.listFailed, list.error));
  }, [list.error]);

  return (
    <section className="wm-catalogue" part="catalogue" aria-labelledby={heading ? headingId : undefined}>
      {heading ? (
        <h2 id={headingId} className="wm-heading" part="heading">
          <Slot name="heading">{heading}</Slot>
        </h2>
      ) : null}
      {list.error ? <LoadFailed part="error">{selectionText.listFailed}</LoadFailed> : null}
      {list.loading && !roadmaps ? <Loader text="Loading roadmaps…" /> : null}
      {roadmaps && roadmaps.length === 0 ? (
        <div className="empty" part="empty">
          <Slot name="empty">No Roadmaps found</Slot>
        </div>
      ) : null}
      {roadmaps && roadmaps.length > 0 ? (
        <ul className="wm-grid" part="grid" aria-busy={list.loading || undefined}>
          {roadmaps.map((r) => (
            <RoadmapCard key={r._id} roadmap={r} onSelect={(c) => selection.select(c._id, c.name)} />
          ))}
        </ul>
      ) : null}
      {selection.dialog}
    </section>
  );
}
