import UnderConstruction from '../placeholder/UnderConstruction';

export default function TicketsPage() {
  return <UnderConstruction />;
}
