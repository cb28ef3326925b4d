/** The columns of a payment event, shared by the payment events list and an order's page. */
import { useLocaleState, useRecordContext } from 'react-admin';
import { ChoiceField, formatTime, IdField } from '../../common/fields';
import { Col } from '../../common/list';

/** A payment event's epoch-ms time field (the marketplace's `validUntil`) in Tehran time. */
function EventTime({ source }: { source: string }) {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  return <>{record?.[source] === undefined ? '' : formatTime(record[source], locale)}</>;
}

/**
 * The columns of a payment event after its time: kind, path, result (translated), reason, the gateway's codes and
 * what the marketplace answered (its HTTP status, the period end it reported, whether it renews).
 */
export function EventColumns() {
  return (
    <>
      <Col source="kind" field={(p: any) => <ChoiceField {...p} group="paymentEventKind" />} />
      <Col source="via" field={(p: any) => <ChoiceField {...p} group="via" />} />
      <Col source="result" field={(p: any) => <ChoiceField {...p} group="result" />} />
      <Col source="ignored" render={(r: any) => (r.ignored ? '✓' : '')} />
      <Col source="reason" field={(p: any) => <ChoiceField {...p} group="reason" />} />
      <Col source="gatewayCode" field={IdField} />
      <Col source="refId" />
      <Col source="marketplaceStatus" field={IdField} />
      <Col source="validUntil" render={() => <EventTime source="validUntil" />} />
      <Col source="autoRenewing" render={(r: any) => (r.autoRenewing === undefined ? '' : r.autoRenewing ? '✓' : '✗')} />
    </>
  );
}
