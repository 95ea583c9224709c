import { helpEndpoints, helpInput, YOUTUBE_ID, youtubeIdOf, type HelpAnswer } from '@atende/shared';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import { FieldRow, requiredText, TextInput, type Column } from '../../kit';
import { FormTable } from './FormTable';
import './i18n';

/** The shared rules: title required, the video a YouTube id (a link is reduced to it). */
const helpFormOf = (invalidVideo: string) =>
  z.object({
    title: requiredText(helpInput.shape.title),
    video: requiredText(
      z.string().transform(youtubeIdOf).pipe(z.string().regex(YOUTUBE_ID, invalidVideo)),
    ),
    description: z.string().max(1000),
  });
type HelpSchema = ReturnType<typeof helpFormOf>;
type HelpForm = z.input<HelpSchema>;
const EMPTY: HelpForm = { title: '', video: '', description: '' };
const listHelps = () => api.call(helpEndpoints.helpList);

/** Help tab (admin §2, §3): title, description and video code of each help video. */
export function HelpsTab() {
  const { t } = useTranslation();
  const helpForm = useMemo(() => helpFormOf(t('superTabs.helps.invalidVideo')), [t]);
  const columns: Column<HelpAnswer>[] = [
    { key: 'title', label: t('superTabs.helps.title'), render: (h) => h.title },
    { key: 'description', label: t('superTabs.helps.description'), render: (h) => h.description },
    { key: 'video', label: t('superTabs.helps.video'), render: (h) => h.video },
  ];
  return (
    <FormTable<HelpAnswer, HelpForm, z.output<HelpSchema>>
      testId="help"
      what={t('superTabs.helps.what')}
      schema={helpForm}
      empty={EMPTY}
      valuesOf={(h) => ({ title: h.title, video: h.video, description: h.description })}
      load={useCallback(listHelps, [])}
      save={(body, editing) =>
        editing
          ? api.call(helpEndpoints.updateHelp, { params: { id: editing.id }, body })
          : api.call(helpEndpoints.createHelp, { body })
      }
      remove={(h) => api.call(helpEndpoints.deleteHelp, { params: { id: h.id } })}
      columns={columns}
      fields={
        <>
          <FieldRow>
            <TextInput name="title" label={t('superTabs.helps.title')} size="small" />
            <TextInput
              name="video"
              label={t('superTabs.helps.video')}
              size="small"
              helperText={t('superTabs.helps.videoHint')}
            />
          </FieldRow>
          <TextInput
            name="description"
            label={t('superTabs.helps.description')}
            size="small"
            multiline
            minRows={2}
          />
        </>
      }
    />
  );
}
