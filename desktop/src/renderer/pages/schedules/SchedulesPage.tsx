import { contactEndpoints, scheduleEndpoints, scheduleEvent } from '@atende/shared';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Calendar, dateFnsLocalizer, type View } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { api } from '../../api';
import { SEARCH_DEBOUNCE_MS } from '../../kit/scroll';
import { useSession } from '../../session/store';
import { useCompanyEvent, useRealtime } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { ScheduleDialog, type Schedule, type ScheduleContact } from './ScheduleDialog';
import { companyZone, displayDate } from './time';
import './i18n';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek,
  getDay,
  locales: { 'pt-BR': ptBR, en: enUS, es },
});

const DAY_MS = 86_400_000;
/** Pages of 20 read for one calendar range (1 000 schedules). */
const MAX_RANGE_PAGES = 50;

/** The instants a view shows around `date`, with a margin for the zone shift. */
function rangeOf(date: Date, view: View): { from: string; to: string } {
  const y = date.getFullYear();
  const m = date.getMonth();
  if (view === 'agenda') {
    return {
      from: new Date(date.getTime() - 2 * DAY_MS).toISOString(),
      to: new Date(date.getTime() + 33 * DAY_MS).toISOString(),
    };
  }
  return {
    from: new Date(y, m, 1 - 9).toISOString(),
    to: new Date(y, m + 1, 1 + 9).toISOString(),
  };
}

const STATUS_COLOR: Record<Schedule['status'], string> = {
  PENDENTE: '#1976d2',
  ENVIADA: '#2e7d32',
  ERRO: '#d32f2f',
  PERDIDA: '#757575',
};

interface CalendarEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

/**
 * Schedules (secondary §2): a calendar with month, week, day and agenda views (pt-BR, en, es) at
 * `sendAt` in the company's zone, a search, an add button; `?contactId=` opens a new schedule for
 * that contact. Live: create and update upsert, delete removes.
 */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const plan = useSession((s) => s.plan);
  const zone = companyZone(useSession((s) => s.user?.company?.settings));
  const epoch = useRealtime((s) => s.resyncEpoch);
  const narrow = useMediaQuery('(max-width:599.95px)');
  const [view, setView] = useState<View>(narrow ? 'agenda' : 'month');
  // The calendar lays events out as display dates (the zone's wall time in browser-local
  // fields): "today" must be the company's today too, not the browser's.
  const zoneNow = useCallback(() => displayDate(Date.now(), zone), [zone]);
  const [date, setDate] = useState(zoneNow);
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [rows, setRows] = useState<Schedule[]>([]);
  const [dialog, setDialog] = useState<{
    record: Schedule | null;
    contact: ScheduleContact | null;
  } | null>(null);

  // Secondary §8: a plan without the flag: the message, then home after 1 s.
  useEffect(() => {
    if (plan && !plan.useSchedules) {
      toast.error(t('schedules.noPlan'));
      const timer = setTimeout(() => navigate('/'), 1_000);
      return () => clearTimeout(timer);
    }
  }, [plan, navigate, t]);

  useEffect(() => {
    const timer = setTimeout(() => setTerm(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const range = useMemo(() => rangeOf(date, view), [date, view]);
  useEffect(() => {
    if (plan && !plan.useSchedules) return;
    let live = true;
    (async () => {
      const all: Schedule[] = [];
      for (let pageNumber = 1; pageNumber <= MAX_RANGE_PAGES; pageNumber++) {
        const page = await api.call(scheduleEndpoints.listSchedules, {
          query: { searchParam: term, pageNumber, ...range },
        });
        all.push(...page.schedules);
        if (!page.hasMore) break;
      }
      if (live) setRows(all);
    })().catch((error: unknown) => live && showError(error));
    return () => {
      live = false;
    };
  }, [range, term, epoch, plan, showError]);

  // `?contactId=` opens the create dialog for that contact.
  const contactParam = params.get('contactId');
  useEffect(() => {
    if (!contactParam || !/^[1-9]\d*$/.test(contactParam)) return;
    api
      .call(contactEndpoints.showContact, { params: { id: Number(contactParam) } })
      .then((c) =>
        setDialog({ record: null, contact: { id: c.id, name: c.name, number: c.number } }),
      )
      .catch(showError);
  }, [contactParam, showError]);

  const upsert = useCallback((row: Schedule) => {
    setRows((list) => {
      const at = list.findIndex((r) => r.id === row.id);
      if (at < 0) return [row, ...list];
      const next = list.slice();
      next[at] = row;
      return next;
    });
  }, []);
  const drop = useCallback((id: number) => setRows((list) => list.filter((r) => r.id !== id)), []);

  useCompanyEvent('schedule', (payload) => {
    const event = scheduleEvent.safeParse(payload);
    if (!event.success) return;
    if (event.data.action === 'delete') drop(event.data.scheduleId);
    else upsert(event.data.schedule as unknown as Schedule);
  });

  const events = useMemo<CalendarEvent[]>(
    () =>
      rows
        .filter(
          (s) =>
            !term ||
            s.body.toLowerCase().includes(term.toLowerCase()) ||
            (s.contact?.name ?? '').toLowerCase().includes(term.toLowerCase()),
        )
        .map((s) => {
          const start = displayDate(s.sendAt, zone);
          return {
            id: s.id,
            title: `${s.contact?.name ?? ''}: ${s.body}`,
            start,
            end: new Date(start.getTime() + 30 * 60_000),
            schedule: s,
          };
        }),
    [rows, zone, term],
  );

  const messages = useMemo(
    () => ({
      ...(t('schedules.calendar', { returnObjects: true }) as Record<string, string>),
      showMore: (count: number) => t('schedules.calendar.showMore', { count }),
    }),
    [t],
  );
  const culture = i18n.language in { 'pt-BR': 1, en: 1, es: 1 } ? i18n.language : 'pt-BR';

  const closeDialog = () => {
    setDialog(null);
    if (contactParam) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };

  return (
    <Box
      sx={{
        p: { xs: 1, sm: 2 },
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'center' }, mb: 1 }}
      >
        <Typography variant="h6" sx={{ flex: 1 }} component="h1">
          {t('schedules.title')}
        </Typography>
        <TextField
          size="small"
          placeholder={t('schedules.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': t('schedules.search'), 'data-testid': 'schedules-search' },
          }}
        />
        <Button
          variant="contained"
          startIcon={<Add />}
          onClick={() => setDialog({ record: null, contact: null })}
          data-testid="schedules-add"
        >
          {t('schedules.add')}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{
          flex: 1,
          minHeight: 520,
          p: { xs: 0.5, sm: 1 },
          '& .rbc-toolbar': { flexWrap: 'wrap', gap: 1 },
          '& .rbc-toolbar .rbc-toolbar-label': { minWidth: 0 },
          '& .rbc-event, & .rbc-agenda-event-cell': { fontSize: 12 },
        }}
        data-testid="schedules-calendar"
      >
        <Calendar<CalendarEvent>
          localizer={localizer}
          culture={culture}
          messages={messages}
          events={events}
          views={['month', 'week', 'day', 'agenda']}
          view={view}
          onView={setView}
          date={date}
          getNow={zoneNow}
          onNavigate={setDate}
          popup
          formats={{
            // A schedule is an instant: the agenda shows its time, not a range.
            agendaTimeRangeFormat: ({ start }, culture, loc) =>
              loc!.format(start, 'HH:mm', culture),
          }}
          style={{ height: '100%', minHeight: 500 }}
          onSelectEvent={(e) => setDialog({ record: e.schedule, contact: null })}
          eventPropGetter={(e) => ({
            className: `schedule-${e.schedule.status.toLowerCase()}`,
            style: {
              backgroundColor: STATUS_COLOR[e.schedule.status],
              textDecoration: e.schedule.status === 'PERDIDA' ? 'line-through' : undefined,
            },
          })}
          tooltipAccessor={(e) => `${t(`schedules.status.${e.schedule.status}`)} · ${e.title}`}
        />
      </Paper>
      <ScheduleDialog
        open={dialog !== null}
        record={dialog?.record ?? null}
        contact={dialog?.contact ?? null}
        onClose={closeDialog}
        onSaved={upsert}
        onDeleted={drop}
      />
    </Box>
  );
}
