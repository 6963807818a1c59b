/** /user/settings/picture: upload an image or give its URL; shown in the top bar's profile icon. */
import { useState, type FormEvent } from 'react';
import { authApi, type Profile } from '../../../api/auth';
import { Button, FormMessage, TextField } from '../../../components/form';
import { user } from '../../../stores/session';
import { useSignals } from '../../../stores/signals';
import { t } from '../../../i18n';
import { serverLink } from '../../../api/app-url';
import { ProfilePicture } from '../../../components/profile-picture';

export function PictureSettings() {
  useSignals();
  const [url, setUrl] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  // The stored address does not give an image (mistyped, moved): said here, where it is changed.
  const [broken, setBroken] = useState(false);
  /** Runs a picture call and says how it went; answers whether it worked. */
  const run = async (call: Promise<Profile>): Promise<boolean> => {
    try {
      const res = await call;
      if (user.value) user.value = { ...user.value, picture: res.picture };
      setMessage({ kind: 'success', text: res.msg });
      return true;
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
      return false;
    }
  };
  const submitUrl = (e: FormEvent) => {
    e.preventDefault();
    // A refused URL stays in the field to be corrected.
    void run(authApi.setPictureUrl(url.trim())).then((ok) => ok && setUrl(''));
  };
  const picture = user.value?.picture;
  return (
    <div className="settings-form">
      <h2>{t('admin.settings.picture')}</h2>
      <div className="picture-preview">
        <ProfilePicture
          src={picture ? serverLink(picture) : null}
          alt={t('admin.settings.yourPicture')}
          initial={<span aria-label={t('admin.settings.noPicture')}>{(user.value?.email ?? '?').charAt(0).toUpperCase()}</span>}
          onBroken={setBroken}
        />
      </div>
      <FormMessage kind="error" text={broken ? t('admin.settings.pictureBroken') : null} />
      <label className="field">
        <span>{t('admin.settings.uploadImage')}</span>
        <input
          type="file"
          aria-label={t('admin.settings.uploadPicture')}
          accept="image/png,image/jpeg,image/gif,image/webp"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void run(authApi.uploadPicture(file));
            e.target.value = '';
          }}
        />
      </label>
      <form onSubmit={submitUrl} noValidate className="settings-inline">
        <TextField
          label={t('admin.settings.imageUrl')}
          name="picture-url"
          value={url}
          onChange={setUrl}
          placeholder="https://…" // i18n-ignore
        />
        <Button type="submit">{t('admin.settings.useUrl')}</Button>
      </form>
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      {picture ? <Button variant="ghost" onClick={() => void run(authApi.removePicture())}>{t('admin.settings.removePicture')}</Button> : null}
    </div>
  );
}
